import { z } from 'zod';
import { text } from './fields';

/** 7.1 the pull operations' 401 body. */
export const PullErrorBody = z.looseObject({
  status: z
    .boolean()
    .nullish()
    .transform((v) => v ?? undefined),
  message: text,
  errorCode: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => v ?? undefined),
});
export type PullErrorBody = z.infer<typeof PullErrorBody>;

/** 7.2 the webhook operation's 400 / 401 / 409 / 422 body. */
export const WebhookErrorEntry = z.looseObject({
  appName: text,
  dateTime: text,
  message: text,
  keyword: text,
  params: z
    .looseObject({
      field: text,
      allowedValues: z
        .array(z.unknown())
        .nullish()
        .transform((v) => v ?? undefined),
    })
    .nullish()
    .transform((v) => v ?? undefined)
    .catch(undefined),
});
export const WebhookErrorBody = z.looseObject({
  statusCode: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? undefined),
  errors: z
    .array(WebhookErrorEntry.catch({ message: 'unreadable error entry' } as never))
    .nullish()
    .transform((v) => v ?? []),
});
export type WebhookErrorBody = z.infer<typeof WebhookErrorBody>;
