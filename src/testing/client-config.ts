import type { ClientConfig } from '@/contract/proxy-api';
import { NOISE_RULES } from '@/domain/noise-rules';

/** What `/api/config` says in the web tests: the proxy's defaults, no tiles, no demo. */
export const CLIENT_CONFIG: ClientConfig = {
  tileUrl: null,
  tileAttribution: '',
  // Long enough that no refetch happens by itself during a test.
  refreshSeconds: 3600,
  maxIds: 500,
  staleAfterMinutes: 30,
  silentAfterMinutes: 120,
  excursionTolerance: 5,
  lowConfidenceMeters: 500,
  noiseRules: [...NOISE_RULES],
  demo: null,
};
