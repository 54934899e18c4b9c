import { describe, expect, it } from 'vitest';
import { readCreatedWebhook } from './webhook';

const UUID = '3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f';
const AT = `/api/v1/webhooks/${UUID}`;
const sent = { eventType: 'PdvRequestCompleted', clientUrl: 'https://hooks.example.com/a' };

describe('the subscription a 201 created', () => {
  it('is read as documented, wrapped one level deeper, or named by its Location when the body has no uuid', () => {
    expect(readCreatedWebhook({ uuid: UUID, ...sent }, undefined)).toMatchObject({ uuid: UUID, ...sent });
    expect(readCreatedWebhook({ webhook: { uuid: UUID, ...sent } }, undefined)).toMatchObject({
      uuid: UUID,
      ...sent,
    });
    for (const body of [{ uuid: null, ...sent }, { uuid: { value: UUID }, ...sent }, {}, ''])
      expect(readCreatedWebhook(body, AT), JSON.stringify(body)).toMatchObject({ uuid: UUID });
    expect(readCreatedWebhook({ uuid: null, ...sent }, AT)).toMatchObject(sent);
    expect(readCreatedWebhook({ webhook: { uuid: null, ...sent } }, `${AT}/`)).toMatchObject({
      uuid: UUID,
      ...sent,
    });
  });

  it('names none when neither the body nor the Location does', () => {
    for (const location of [undefined, '', '/api/v1/webhooks/', '/elsewhere', '/api/v1/webhooks/%E0%A4%A'])
      expect(readCreatedWebhook({ uuid: null, ...sent }, location), String(location)).toBeUndefined();
  });
});
