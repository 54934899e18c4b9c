import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { privateAddressReason } from '@/contract/client-url';
import type { AppEnv } from '../app-env';
import type { UpstreamClient } from '../upstream-client';
import { validate } from '../validation';

/**
 * The shape is checked here, and one thing more: a client URL of this machine or a private network
 * is refused (400 naming `clientUrl`), so the service is never asked to call into a network it should
 * not reach. Otherwise the values go to the upstream as typed, so that its own 422 (an event type
 * outside its enum, an address that is not https) reaches the form where it belongs.
 */
const WebhookBody = z.strictObject({
  eventType: z.string().max(200),
  clientUrl: z
    .string()
    .max(2048)
    .superRefine((url, ctx) => {
      const reason = privateAddressReason(url.trim());
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    }),
});

const BEARER = /^Bearer [\w\-.~+/]+=*$/;

/** `POST /api/webhooks`: the browser's bearer token (never logged, never stored) and body, relayed. */
export function webhookRoutes(upstream: UpstreamClient) {
  return new Hono<AppEnv>().post('/', validate('json', WebhookBody), async (c) => {
    const authorization = c.req.header('authorization');
    const answer = await upstream.createWebhook(
      c.req.valid('json'),
      authorization && BEARER.test(authorization) ? authorization : undefined,
    );
    c.set('upstreamCalls', 1);
    if (answer.location) c.header('Location', answer.location);
    return c.json(answer.body as object, answer.status as ContentfulStatusCode);
  });
}
