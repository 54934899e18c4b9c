import { z } from 'zod';

/**
 * What we send to the pull operations (sections 2.1 and 2.2): strict, exactly the documented fields.
 */
const includeFlags = {
  sendNewData: z.enum(['yes', 'no']).optional(),
  includeLocations: z.boolean().optional(),
  includeEvents: z.boolean().optional(),
  includeDocuments: z.boolean().optional(),
  includeComments: z.boolean().optional(),
};

const credentials = {
  partnerId: z.number().int().min(0),
  accountId: z.string().min(1),
};

/** 2.1 `LoadTrack`: pull by the partner's external ids. */
export const LoadTrackRequest = z.strictObject({
  ...credentials,
  loadTrackExternalIds: z.array(z.string()),
  ...includeFlags,
});
export type LoadTrackRequest = z.infer<typeof LoadTrackRequest>;

/**
 * 2.2 `GetLoadTrackByLoadNumber`: pull by the broker's load numbers. The schema also lists
 * `loadTrackExternalIds` as required (section 4.2); we send the load numbers under `loadNumbers` and
 * an empty `loadTrackExternalIds`, which satisfies both readings (see README, "Choices").
 */
export const LoadNumberRequest = z.strictObject({
  ...credentials,
  loadNumbers: z.array(z.string()),
  loadTrackExternalIds: z.array(z.string()).optional(),
  ...includeFlags,
});
export type LoadNumberRequest = z.infer<typeof LoadNumberRequest>;
