import * as z from 'zod/mini';
import { LoadRefText } from './proxy-api';
import './zod-locale';

/** `/api/exceptions/acks`: what the team said of loads' exceptions (acknowledged, snoozed). */

/**
 * What makes a load need a dispatcher's action (issue 36 part 4), most severe first: its next stop
 * is late; its phone went dark while it was moving; it waits at a stop past its free time; its next
 * stop is at risk; its phone has not reported lately (any other reason).
 */
export const EXCEPTION_KINDS = ['late', 'dark-moving', 'detention', 'at-risk', 'stale'] as const;
export const ExceptionKind = z.enum(EXCEPTION_KINDS);
export type ExceptionKind = z.infer<typeof ExceptionKind>;

export const EXCEPTION_NOTE_MAX_LENGTH = 500;
/** The longest snooze: a week. */
export const SNOOZE_MAX_MINUTES = 7 * 24 * 60;

/**
 * `PUT /api/exceptions/acks`: acknowledge a load's exception (for as long as that occurrence lasts),
 * snooze it for `minutes`, or clear what was said of it. `occurrence` names which one was seen (the
 * stop it concerns, or the last ping before the phone went quiet): an acknowledgement holds only
 * while the load's exception is that one, so a new one comes back to the list.
 */
export const ExceptionAckRequest = z
  .strictObject({
    load: LoadRefText,
    kind: ExceptionKind,
    action: z.enum(['acknowledge', 'snooze', 'clear']),
    minutes: z.optional(
      z
        .int('minutes is a whole number')
        .check(
          z.gte(1, 'a snooze lasts at least 1 minute'),
          z.lte(SNOOZE_MAX_MINUTES, `a snooze lasts at most ${SNOOZE_MAX_MINUTES} minutes`),
        ),
    ),
    occurrence: z.optional(
      z
        .string()
        .check(
          z.minLength(1, 'occurrence must not be empty'),
          z.maxLength(120, 'occurrence is at most 120 characters'),
        ),
    ),
    note: z.optional(
      z
        .string()
        .check(
          z.maxLength(EXCEPTION_NOTE_MAX_LENGTH, `a note is at most ${EXCEPTION_NOTE_MAX_LENGTH} characters`),
        ),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.action === 'snooze' && v.minutes === undefined)
        ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'a snooze needs minutes', input: v });
      if (v.action !== 'snooze' && v.minutes !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['minutes'],
          message: `minutes go with snooze only, not with ${v.action}`,
          input: v,
        });
      if (v.action === 'acknowledge' && v.occurrence === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['occurrence'],
          message: 'an acknowledgement names the occurrence it acknowledges',
          input: v,
        });
    }),
  );
export type ExceptionAckRequest = z.infer<typeof ExceptionAckRequest>;

/** What the team said of one load's exception of one kind: the latest action, who and when. */
export const ExceptionAck = z.object({
  load: z.string(),
  kind: ExceptionKind,
  state: z.enum(['acknowledged', 'snoozed', 'cleared']),
  /** `snoozed`: until when (ISO 8601); null otherwise. */
  until: z.nullable(z.string()),
  occurrence: z.nullable(z.string()),
  note: z.nullable(z.string()),
  by: z.string(),
  /** ISO 8601. */
  at: z.string(),
  /** 1 for the first action on this load and kind, one more for each after it. */
  version: z.number(),
});
export type ExceptionAck = z.infer<typeof ExceptionAck>;

/** `GET /api/exceptions/acks`: every acknowledgement and snooze in force or ended, not cleared ones. */
export const ExceptionAcksAnswer = z.object({ acks: z.array(ExceptionAck) });
export type ExceptionAcksAnswer = z.infer<typeof ExceptionAcksAnswer>;
