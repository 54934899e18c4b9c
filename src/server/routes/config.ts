import { Hono } from 'hono';
import type { ClientConfig } from '@/contract/proxy-api';

/** `GET /api/config`: what the SPA may know, and nothing else. */
export function configRoutes(config: ClientConfig) {
  return new Hono().get('/', (c) => c.json(config));
}
