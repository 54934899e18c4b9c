import type { Migration } from 'kysely';
import * as auditLog from './migrations/20261126T2200-audit-log';
import * as usersAndSessions from './migrations/20261126T2300-users-and-sessions';
import * as documentReviews from './migrations/20261127T0100-document-reviews';
import * as webhookRegistry from './migrations/20261127T0200-webhook-registry';
import * as savedBoards from './migrations/20261127T0230-saved-boards';
import * as reviewChanges from './migrations/20261127T0300-review-changes';
import * as shareLinks from './migrations/20261127T0310-share-links';
import * as tracksAndLease from './migrations/20261127T0320-tracks-and-lease';
import * as exceptionAcks from './migrations/20261127T0330-exception-acks';
import * as alerts from './migrations/20261127T0410-alerts';
import * as trackNotesAndMissing from './migrations/20261127T0500-track-notes-and-missing';
import * as itemCounts from './migrations/20261127T2000-item-counts';
import * as tripStops from './migrations/20261128T1800-trip-stops';
import * as exceptionAckEnds from './migrations/20261128T1830-exception-ack-ends';

/**
 * Every migration, oldest first, by the name of its file in `migrations/` (a timestamp, then what it
 * does). Listed rather than read from the folder at run time: the server is bundled into one file
 * (`npm run build`), where there is no folder to read. A test checks this list against the folder.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '20261126T2200-audit-log': auditLog,
  '20261126T2300-users-and-sessions': usersAndSessions,
  '20261127T0100-document-reviews': documentReviews,
  '20261127T0200-webhook-registry': webhookRegistry,
  '20261127T0230-saved-boards': savedBoards,
  '20261127T0300-review-changes': reviewChanges,
  '20261127T0310-share-links': shareLinks,
  '20261127T0320-tracks-and-lease': tracksAndLease,
  '20261127T0330-exception-acks': exceptionAcks,
  '20261127T0410-alerts': alerts,
  '20261127T0500-track-notes-and-missing': trackNotesAndMissing,
  '20261127T2000-item-counts': itemCounts,
  '20261128T1800-trip-stops': tripStops,
  '20261128T1830-exception-ack-ends': exceptionAckEnds,
};
