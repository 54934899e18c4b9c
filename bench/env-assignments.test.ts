import { describe, expect, it } from 'vitest';
import { envAssignments } from './env-assignments';

describe('envAssignments', () => {
  it('reads NAME=value words, an empty value unsetting the name', () => {
    expect(envAssignments(' MALLOC_ARENA_MAX=2  NODE_OPTIONS=  A_B=x=y ')).toEqual({
      MALLOC_ARENA_MAX: '2',
      NODE_OPTIONS: undefined,
      A_B: 'x=y',
    });
  });

  it('is no variables for nothing', () => {
    expect(envAssignments('')).toEqual({});
    expect(envAssignments('   ')).toEqual({});
  });

  it('refuses a word that is not an assignment', () => {
    expect(() => envAssignments('MALLOC_ARENA_MAX 2')).toThrow(/not NAME=value/);
    expect(() => envAssignments('=2')).toThrow(/not NAME=value/);
    expect(() => envAssignments('2X=1')).toThrow(/not NAME=value/);
  });
});
