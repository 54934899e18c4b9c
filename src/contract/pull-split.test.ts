import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberAt, splitPullAnswer } from './pull-split';

const bytes = (text: string) => new TextEncoder().encode(text);
const texts = (text: string) => {
  const b = bytes(text);
  const split = splitPullAnswer(b);
  const decode = (s: number, e: number) => new TextDecoder().decode(b.subarray(s, e));
  return (
    split && {
      details: split.details.map((d) => decode(d.start, d.end)),
      all: decode(split.start, split.end),
    }
  );
};

describe('splitPullAnswer', () => {
  it('finds each detail’s text, whatever strings, nesting and spaces it holds', () => {
    const answer =
      '{ "status": true, "details" : [ {"a":"}]\\"[{","b":[1,{"c":null}]} ,\n{"d":"é"}, 5, "x" ], "timeStamp":"t" }';
    expect(texts(answer)).toEqual({
      details: ['{"a":"}]\\"[{","b":[1,{"c":null}]}', '{"d":"é"}', '5', '"x"'],
      all: '[ {"a":"}]\\"[{","b":[1,{"c":null}]} ,\n{"d":"é"}, 5, "x" ]',
    });
    expect(texts('{"details":[]}')).toEqual({ details: [], all: '[]' });
  });

  it('gives each detail back as JSON.parse reads it, for any answer', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 5 }), fc.jsonValue(), (details, other) => {
        const answer = { status: true, other, details };
        const split = texts(JSON.stringify(answer, null, 1));
        expect(split?.details.map((d) => JSON.parse(d) as unknown)).toEqual(
          JSON.parse(JSON.stringify(details)),
        );
      }),
    );
  });

  it('is unsure (undefined) of what it cannot read plainly', () => {
    for (const answer of [
      '{"status":true}',
      '{"details":null}',
      '{"details":[{"a":1}],"details":[]}',
      '{"detai\\u006cs":[{"a":1}]}',
      '{"details":[{"a":1}',
      '{"details":[{"a":1},]}',
      '{"details":[{"a":1}]} x',
      '[{"details":[]}]',
    ])
      expect(splitPullAnswer(bytes(answer)), answer).toBeUndefined();
  });
});

describe('memberAt', () => {
  it('finds where a member’s value begins (its last one), -1 when absent, -2 when not plain', () => {
    const text = '{"a":1, "id" : "x\\"}" ,"b":{"id":2},"id":7}';
    const b = bytes(text);
    expect(text.slice(memberAt(b, 0, 'id'))).toBe('7}');
    expect(memberAt(b, 0, 'c')).toBe(-1);
    expect(memberAt(bytes('{"i\\u0064":1}'), 0, 'id')).toBe(-2);
    expect(memberAt(bytes('[1]'), 0, 'id')).toBe(-2);
  });
});
