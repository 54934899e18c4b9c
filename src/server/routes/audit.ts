import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { AUDIT_LIMIT_DEFAULT, AuditQuery } from '@/contract/admin-api';
import type { AppEnv } from '../app-env';
import { readAuditLog } from '../audit/audit-log';
import { requireStore, storeUnavailable } from '../errors';
import type { Database } from '../store/database';
import { validate } from '../validation';

const unavailable = storeUnavailable('the audit log cannot be read now');

/** `GET /api/audit` (admins, mounted behind `adminOnly`): `?limit=`, `?before=` an id, `?action=`. */
export function auditRoutes(db: Kysely<Database> | undefined) {
  return new Hono<AppEnv>().get('/', validate('query', AuditQuery), async (c) => {
    const { limit, before, action } = c.req.valid('query');
    const page = await readAuditLog(requireStore(db), {
      limit: limit === undefined ? AUDIT_LIMIT_DEFAULT : Number(limit),
      ...(before === undefined ? {} : { before }),
      ...(action === undefined ? {} : { action }),
    }).catch(unavailable);
    return c.json(page);
  });
}
