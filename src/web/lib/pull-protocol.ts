import type { LoadBy } from '@/domain/model';
import type { PullBody, PulledLoads } from './pull-answer';

/** What the page asks the pull worker: a pull, or to stop one. */
export type PullRequestMessage =
  { type: 'pull'; id: number; by: LoadBy; body: PullBody } | { type: 'abort'; id: number };

/** An ApiError, as it crosses from the worker to the page. */
export interface PullFailure {
  status: number;
  code: string;
  message: string;
  details?: unknown;
  retryAfter?: string;
}

/** The worker's answer to one pull. */
export type PullReply = { id: number; data: PulledLoads } | { id: number; error: PullFailure };
