import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES, WebhookCreateRequest } from '@/contract/webhook';
import { isRecord } from '@/contract/records';

/**
 * `POST /api/v1/webhooks` (upstream-api.md 4.4): bearer JWT (HS256, `exp` required), the request
 * validated with the contract's schema, duplicates refused, errors in the 7.2 shape.
 */

/** The 7.2 `appName` of the simulator's webhook service. */
export const WEBHOOK_APP_NAME = 'haulview-simulator-webhooks';
export const DEMO_TOKEN_TTL_SECONDS = 24 * 60 * 60;

export interface WebhookOperationOptions {
  jwtSecret: string;
  now: () => number;
}

interface ErrorEntry {
  message: string;
  keyword: string;
  params?: { field?: string; allowedValues?: readonly string[] };
}

const secretKey = (secret: string) => new TextEncoder().encode(secret);

/**
 * A bearer token the simulator accepts for 24 hours from `now`: printed at start and offered by the
 * demo (the interface does not say how real tokens are obtained).
 */
export async function demoToken(secret: string, now: number = Date.now()): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ scope: 'webhooks:write' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('haulview-demo')
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + DEMO_TOKEN_TTL_SECONDS)
    .sign(secretKey(secret));
}

export function createWebhookOperation(o: WebhookOperationOptions): (request: Request) => Promise<Response> {
  const key = secretKey(o.jwtSecret);
  /** Created webhooks by event type and normalized URL, for the 409. */
  const created = new Set<string>();

  function failure(status: number, entries: ErrorEntry[], headers?: Record<string, string>): Response {
    const dateTime = new Date(o.now()).toISOString();
    const errors = entries.map((e) => ({
      appName: WEBHOOK_APP_NAME,
      dateTime,
      message: e.message,
      keyword: e.keyword,
      params: e.params ?? {},
    }));
    return Response.json({ statusCode: status, errors }, { status, headers });
  }

  /** Undefined when the token is good, else the 401 message. */
  async function tokenProblem(authorization: string | null): Promise<string | undefined> {
    const token = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    if (!token) return 'a bearer token is required (Authorization: Bearer <token>)';
    try {
      await jwtVerify(token, key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
        currentDate: new Date(o.now()),
      });
      return undefined;
    } catch (error) {
      return error instanceof joseErrors.JWTExpired ? 'the token has expired' : 'the token is invalid';
    }
  }

  /** 7.2 entries for a body that is an object but not a valid request: one per offending field. */
  function validationErrors(body: Record<string, unknown>): ErrorEntry[] {
    const result = WebhookCreateRequest.safeParse(body);
    if (result.success) return [];
    const entries = new Map<string, ErrorEntry>();
    const allowedValues = WEBHOOK_EVENT_TYPES;
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const field of issue.keys) {
          entries.set(field, {
            message: `unknown field "${field}": only eventType and clientUrl are accepted`,
            keyword: 'additionalProperties',
            params: { field },
          });
        }
        continue;
      }
      const field = String(issue.path[0]);
      if (entries.has(field)) continue; // one entry per field, the first problem found
      const extra = field === 'eventType' ? { allowedValues } : {};
      if (body[field] === undefined) {
        entries.set(field, {
          message: `${field} is required`,
          keyword: 'required',
          params: { field, ...extra },
        });
      } else if (field === 'eventType') {
        entries.set(field, {
          message: `eventType must be one of: ${allowedValues.join(', ')}`,
          keyword: 'enum',
          params: { field, allowedValues },
        });
      } else {
        entries.set(field, {
          message: `clientUrl must be a valid https URL: ${issue.message}`,
          keyword: 'format',
          params: { field },
        });
      }
    }
    return [...entries.values()];
  }

  return async function createWebhook(request: Request): Promise<Response> {
    // The token first: an unauthenticated caller learns nothing about what its body would do.
    const problem = await tokenProblem(request.headers.get('Authorization'));
    if (problem) {
      return failure(401, [{ message: problem, keyword: 'unauthorized' }], {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return failure(400, [{ message: 'the body is not valid JSON', keyword: 'parse' }]);
    }
    if (!isRecord(body)) {
      return failure(400, [{ message: 'the body must be a JSON object', keyword: 'type' }]);
    }
    const invalid = validationErrors(body);
    if (invalid.length > 0) return failure(422, invalid);
    const { eventType, clientUrl } = WebhookCreateRequest.parse(body);
    // The same address written differently (host case, default port) is the same webhook.
    const identity = `${eventType} ${new URL(clientUrl).href}`;
    if (created.has(identity)) {
      return failure(409, [
        {
          message: `a webhook for ${eventType} at this clientUrl already exists`,
          keyword: 'conflict',
          params: { field: 'clientUrl' },
        },
      ]);
    }
    const uuid = randomUUID();
    created.add(identity);
    const webhook = {
      uuid,
      eventType,
      clientUrl,
      isActive: true,
      createdAt: new Date(o.now()).toISOString(),
    };
    return Response.json(webhook, { status: 201, headers: { Location: `/api/v1/webhooks/${uuid}` } });
  };
}
