import { describe, expect, it } from 'vitest';
import { readCreatedWebhook } from './webhook';

const UUID = '3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f';
const AT = `/api/v1/webhooks/${UUID}`;
const sent = { eventType: 'PdvRequestCompleted', clientUrl: 'https://hooks.example.com/a' };

describe('the subscription a 201 created', () => {
  it('is read as documented, wrapped one level deeper, or named by its Location when the body has no uuid', () => {
    expect(readCreatedWebhook({ uuid: UUID, ...sent }, undefined).webhook).toMatchObject({
      uuid: UUID,
      ...sent,
    });
    expect(readCreatedWebhook({ webhook: { uuid: UUID, ...sent } }, undefined).webhook).toMatchObject({
      uuid: UUID,
      ...sent,
    });
    for (const body of [{ uuid: null, ...sent }, { uuid: { value: UUID }, ...sent }, {}, ''])
      expect(readCreatedWebhook(body, AT).webhook, JSON.stringify(body)).toMatchObject({ uuid: UUID });
    expect(readCreatedWebhook({ uuid: null, ...sent }, AT).webhook).toMatchObject(sent);
    expect(readCreatedWebhook({ webhook: { uuid: null, ...sent } }, `${AT}/`).webhook).toMatchObject({
      uuid: UUID,
      ...sent,
    });
  });

  it('names none when neither the body nor the Location does', () => {
    for (const location of [undefined, '', '/api/v1/webhooks/', '/elsewhere', '/api/v1/webhooks/%E0%A4%A'])
      expect(readCreatedWebhook({ uuid: null, ...sent }, location).webhook, String(location)).toBeUndefined();
  });

  it('notes every departure, and none for a subscription as documented', () => {
    expect(readCreatedWebhook({ uuid: UUID, ...sent, isActive: true }, AT).issues).toEqual([]);
    const { issues } = readCreatedWebhook({ uuid: 7, eventType: null, clientUrl: 3, isActive: 'yes' }, AT);
    expect(issues.map((i) => [i.path, i.kind, i.keptItem])).toEqual([
      ['uuid', 'wrong_type', true],
      ['eventType', 'null_where_required', true],
      ['clientUrl', 'wrong_type', true],
      ['isActive', 'wrong_type', true],
    ]);
    expect(readCreatedWebhook({ uuid: null }, undefined).issues).toEqual([
      expect.objectContaining({ path: 'uuid', kind: 'null_where_required', skipped: true }),
    ]);
  });
});
