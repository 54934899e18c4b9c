import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { AUDIT_LIMIT_DEFAULT, AuditQuery } from '@/contract/admin-api';
import type { AppEnv } from '../app-env';
import { readAuditLog } from '../audit/audit-log';
import { ProxyError } from '../errors';
import type { Database } from '../store/database';
import { validate } from '../validation';

const storeUnavailable = (error: unknown): never => {
  if (error instanceof ProxyError) throw error;
  throw new ProxyError(
    503,
    'store_unavailable',
    'the store does not answer: the audit log cannot be read now',
  );
};

/** `GET /api/audit` (admins, mounted behind `adminOnly`): `?limit=`, `?before=` an id, `?action=`. */
export function auditRoutes(db: Kysely<Database> | undefined) {
  return new Hono<AppEnv>().get('/', validate('query', AuditQuery), async (c) => {
    if (db === undefined) throw new ProxyError(503, 'store_unavailable', 'this server has no store');
    const { limit, before, action } = c.req.valid('query');
    const page = await readAuditLog(db, {
      limit: limit === undefined ? AUDIT_LIMIT_DEFAULT : Number(limit),
      ...(before === undefined ? {} : { before }),
      ...(action === undefined ? {} : { action }),
    }).catch(storeUnavailable);
    return c.json(page);
  });
}
