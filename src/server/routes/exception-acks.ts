import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { ExceptionAckRequest, type ExceptionAcksAnswer } from '@/contract/exceptions-api';
import type { AppEnv } from '../app-env';
import { requireStore, storeUnavailable } from '../errors';
import { actOnException, listExceptionAcks } from '../exceptions/exception-acks';
import type { Database } from '../store/database';
import { validate } from '../validation';

const unavailable = storeUnavailable('acknowledgements and snoozes cannot be read or saved now');

/**
 * `/api/exceptions/acks`: the team's acknowledgements and snoozes of loads' exceptions. Every role
 * reads and acts (dispatchers are the ones who do); each action is audited with the user's name.
 */
export function exceptionAckRoutes(db: Kysely<Database> | undefined, now: () => number) {
  const store = () => requireStore(db);
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const acks = await listExceptionAcks(store()).catch(unavailable);
      return c.json({ acks } satisfies ExceptionAcksAnswer);
    })
    .put('/', validate('json', ExceptionAckRequest), async (c) => {
      const ack = await actOnException(store(), c.req.valid('json'), c.get('user').name, now()).catch(
        unavailable,
      );
      return c.json(ack);
    });
}
