import { Hono } from 'hono';
import type { DriftReport } from '../drift-report';

/** `GET /api/diagnostics`: the drift report of the upstream's answers since start. */
export function diagnosticsRoutes(report: DriftReport) {
  return new Hono().get('/', (c) => c.json(report.snapshot()));
}
