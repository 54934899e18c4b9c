import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's superuser URL (src/testing/test-store.ts makes a database per file from it). */
    postgresUrl: string;
  }
}

/**
 * Vitest globalSetup of the `store` project: one PostgreSQL cluster for the whole run, stopped and
 * removed at the end (and when the process exits without tearing down, e.g. on Ctrl-C).
 */
export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  const stopOnExit = () => cluster.stop();
  process.once('exit', stopOnExit);
  project.provide('postgresUrl', cluster.url);
  return () => {
    process.off('exit', stopOnExit);
    cluster.stop();
  };
}
