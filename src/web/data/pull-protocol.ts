import type { Load, LoadBy } from '@/domain/model';
import type { EarlyPoints, LookRules } from '../lib/load-look';
import type { PerfDetail } from '../lib/perf-marks';
import type { LoadChange } from './board-data';
import type { DocumentUrls } from './document-urls';
import type { PulledLoads } from './pull-answer';
import type { PullBody } from './pull-body';

/** What the page asks the pull worker. */
export type PullRequest =
  | {
      kind: 'pull';
      id: number;
      by: LoadBy;
      /** The body as sent (its 10,000 ids written once per watch list, on the page). */
      text: string;
      /** What the body says beside its ids (the answer's mark names the lists asked for). */
      body: Omit<PullBody, 'ids'>;
      /**
       * The view of many loads this pull refreshes (one key per view, operation and watch list): the
       * worker keeps it, and answers a poll with only the loads that changed in it.
       */
      view?: string;
      /** The map draws the view: its points come first when the page gave the rules of their looks. */
      points?: boolean;
    }
  | {
      /** The URLs of the documents of many loads (documentUrlsKeeper), kept in the worker. */
      kind: 'document-urls';
      id: number;
      by: LoadBy;
      /** The ids as JSON, written once per watch list on the page. */
      ids: string;
      key: string;
      known: string | undefined;
    }
  | { kind: 'abort'; id: number }
  /**
   * The rules the map judges its markers' looks by: from then on, a whole answer of a view is sent
   * as the map's points first (`points`), then as loads.
   */
  | { kind: 'looks'; rules: LookRules }
  /** The map drew a pull's points (or will not): its loads may come now. */
  | { kind: 'loads'; id: number };

/** An ApiError as it crosses to the page (an Error's own fields do not survive the copy). */
export interface ApiErrorFields {
  status: number;
  code: string;
  message: string;
  details?: unknown;
  retryAfter?: string;
}

/** When the answer arrived (an epoch instant, the same on both threads), and the mark's detail. */
export interface AnswerMark {
  at: number;
  detail: PerfDetail | undefined;
}

/** What the worker answers, once per pull (after the parts of a full answer, if it had any). */
export type PullReply =
  | {
      /**
       * Loads of a full answer read so far, while the rest are read: the page copies each part on
       * its thread while the worker reads the next one on its own, instead of copying 10,000 loads
       * in one go after the last is read.
       */
      kind: 'part';
      id: number;
      loads: Load[];
    }
  | {
      /**
       * The map's points of a whole answer of a view, sent before its loads, which wait for the
       * page's `loads`: the map draws them before the page copies the loads and renders the board.
       */
      kind: 'points';
      id: number;
      points: EarlyPoints;
    }
  | {
      kind: 'pulled';
      id: number;
      /** The answer; its loads are those after the `given` that came in parts before it. */
      data: PulledLoads;
      given: number;
      answer: AnswerMark | undefined;
    }
  | {
      /** Changes to the view the page asked from (the body's `since`). */
      kind: 'patched';
      id: number;
      changes: LoadChange[];
      rest: Omit<PulledLoads, 'loads'>;
      answer: AnswerMark | undefined;
    }
  | { kind: 'document-urls'; id: number; urls: DocumentUrls; answer: AnswerMark | undefined }
  | { kind: 'failed'; id: number; error: ApiErrorFields }
  /** The build the worker's answers name, when it changes: the page offers a reload on another. */
  | { kind: 'build'; build: string };
