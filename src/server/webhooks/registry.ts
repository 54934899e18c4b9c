import type { Kysely, Selectable } from 'kysely';
import type { RecordedWebhook } from '@/contract/admin-api';
import { recordAudit } from '../store/audit';
import type { Database, WebhooksTable } from '../store/database';

/** The admins' list shows this many at most: far more than one team creates. */
const LIST_LIMIT = 500;

const toWebhook = (row: Selectable<WebhooksTable>): RecordedWebhook => ({
  uuid: row.uuid,
  eventType: row.event_type,
  clientUrl: row.client_url,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
});

/**
 * Records a webhook the service accepted, with its `webhook.create` audit entry in the same
 * transaction. Takes no token: what is never passed in cannot be stored. The same uuid again (the
 * service answering twice) keeps the first record.
 */
export async function recordWebhook(
  db: Kysely<Database>,
  webhook: { uuid: string; eventType: string; clientUrl: string },
  actor: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('webhooks')
      .values({
        uuid: webhook.uuid,
        event_type: webhook.eventType,
        client_url: webhook.clientUrl,
        created_by: actor,
      })
      .onConflict((c) => c.column('uuid').doNothing())
      .returning('uuid')
      .executeTakeFirst();
    if (inserted === undefined) return;
    await recordAudit(trx, {
      actor,
      action: 'webhook.create',
      subject: webhook.uuid,
      details: { eventType: webhook.eventType, clientUrl: webhook.clientUrl },
    });
  });
}

/** The webhooks created through Haulview, the newest first. */
export async function listWebhooks(db: Kysely<Database>): Promise<RecordedWebhook[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('uuid')
    .limit(LIST_LIMIT)
    .execute();
  return rows.map(toWebhook);
}
