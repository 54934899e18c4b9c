import { describe, expect, it } from 'vitest';
import byLoadNumber from '@/testing/fixtures/by-load-number-quirks.json';
import pull401 from '@/testing/fixtures/pull-401.json';
import statusFalse from '@/testing/fixtures/pull-status-false.json';
import webhook201 from '@/testing/fixtures/webhook-201.json';
import webhook409 from '@/testing/fixtures/webhook-409.json';
import webhook422 from '@/testing/fixtures/webhook-422.json';
import { PullErrorBody, WebhookErrorBody } from '@/contract/errors';
import { parsePullAnswer } from '@/contract/parse-pull';
import { Webhook } from '@/contract/webhook';
import { normalizeLoad } from './normalize';

/** The fixture corpus: realistic answers with the quirks the real service is known for. */
describe('fixtures', () => {
  it('by load number: integer and numeric-string values, null name and driver, misspelled UTC field, odd stops', () => {
    const parsed = parsePullAnswer(byLoadNumber);
    if ('error' in parsed) throw new Error(parsed.error);
    const [detail] = parsed.data.details;
    expect(detail?.loadNumber).toBe('4471');
    expect(detail?.ltExternalId).toBe('700200');
    const load = normalizeLoad(detail!, 'load-number', 'details[0]', [...parsed.data.detailIssues[0]!]);
    expect(load).toMatchObject({ id: '4471', loadNumber: '4471' });
    // A number where a string is documented still places the load; "48" is 48 meters.
    expect(load?.latestLocation).toMatchObject({ lat: 35.149, lon: -90.049, accuracy: 48 });
    expect(load?.latestStatus).toMatchObject({ name: undefined, code: 'ITR' });
    // The phone number of the by-load-number pings reaches the driver.
    expect(load?.pings.map((p) => p.driver?.phone)).toEqual(['+19015550100', '+19015550100']);
    // Across the switch to daylight saving, instants keep increasing.
    expect(load?.pings.map((p) => p.time.local)).toEqual(['03/08/2026 01:55 CST', '03/08/2026 03:05 CDT']);
    expect(load!.pings[1]!.instant - load!.pings[0]!.instant).toBe(10 * 60_000);
    // The misspelled `timstampUTC` is read; an unknown zone keeps its wall time (approximate).
    expect(load?.events.map((e) => [e.id, e.instant, e.time.approximate])).toEqual([
      ['9002', Date.parse('2026-03-08T03:06:00Z'), true],
      ['9001', Date.parse('2026-03-08T07:55:00Z'), false],
    ]);
    expect(load?.issues.map((i) => i.kind)).toContain('unknown_zone');
    expect(load?.extras.stops).toEqual(byLoadNumber.details[0]!.stops);
  });

  it('the pull 401 body and an HTTP 200 that says status false', () => {
    expect(PullErrorBody.parse(pull401)).toEqual({
      status: false,
      message: 'Invalid account',
      errorCode: 1001,
    });
    const parsed = parsePullAnswer(statusFalse);
    expect('error' in parsed ? parsed.error : parsed.data.status).toBe(false);
    expect(PullErrorBody.parse(statusFalse).message).toBe('Account suspended');
  });

  it('the webhook 201 body and the 7.2 error bodies, unknown keywords and unreadable entries included', () => {
    expect(Webhook.parse(webhook201)).toMatchObject({
      uuid: '4d052657-dd51-40c0-b271-f9c49fa6eb59',
      isActive: true,
    });
    const errors = WebhookErrorBody.parse(webhook422).errors;
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatchObject({
      keyword: 'enum',
      params: { field: 'eventType', allowedValues: ['PdvRequestCompleted'] },
    });
    expect(errors[2]).toMatchObject({ keyword: 'x-new-keyword', params: undefined });
    expect(errors[3]?.message).toBe('unreadable error entry');
    expect(WebhookErrorBody.parse(webhook409)).toMatchObject({
      statusCode: 409,
      errors: [{ keyword: 'conflict' }],
    });
  });
});
