import * as z from 'zod/mini';
import { orAbsent, text } from './mini-fields';
import './zod-locale';

/** 7.1 the pull operations' 401 body. */
export const PullErrorBody = z.looseObject({
  status: orAbsent(z.boolean()),
  message: text,
  errorCode: orAbsent(z.union([z.number(), z.string()])),
});
export type PullErrorBody = z.infer<typeof PullErrorBody>;

/** 7.2 the webhook operation's 400 / 401 / 409 / 422 body. */
export const WebhookErrorEntry = z.looseObject({
  appName: text,
  dateTime: text,
  message: text,
  keyword: text,
  params: z.catch(
    orAbsent(
      z.looseObject({
        field: text,
        allowedValues: orAbsent(z.array(z.unknown())),
      }),
    ),
    undefined,
  ),
});
export const WebhookErrorBody = z.looseObject({
  statusCode: orAbsent(z.number().check(z.int())),
  errors: z.pipe(
    z.nullish(z.array(z.catch(WebhookErrorEntry, { message: 'unreadable error entry' } as never))),
    z.transform((v) => v ?? []),
  ),
});
export type WebhookErrorBody = z.infer<typeof WebhookErrorBody>;
