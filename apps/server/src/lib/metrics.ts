import client from 'prom-client';
import type { JobHandler, JobPayload, JobQueue } from './jobs.js';

interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The host's Prometheus metrics, in a registry of its own (several hosts may live in one process in tests):
 * requests and their durations per route, background jobs per name and outcome, database pool connections, and
 * Node's process metrics.
 */
export class Metrics {
  readonly registry = new client.Registry();
  readonly httpRequests: client.Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  readonly jobs: client.Counter<'name' | 'outcome'>;
  readonly jobDuration: client.Histogram<'name'>;
  readonly jobsRunning: client.Gauge<'name'>;
  readonly analysisCache: client.Counter<'cache' | 'result'>;

  constructor(options: { poolStats?: (() => PoolStats) | undefined }) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry, prefix: 'zhzy_' });
    this.httpRequests = new client.Counter({
      name: 'zhzy_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new client.Histogram({
      name: 'zhzy_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jobs = new client.Counter({
      name: 'zhzy_jobs_total',
      help: 'Background jobs finished by this instance, by name and outcome (completed, failed)',
      labelNames: ['name', 'outcome'],
      registers,
    });
    this.jobDuration = new client.Histogram({
      name: 'zhzy_job_duration_seconds',
      help: 'Time a background job ran, by name',
      labelNames: ['name'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    this.jobsRunning = new client.Gauge({
      name: 'zhzy_jobs_running',
      help: 'Background jobs running on this instance now, by name',
      labelNames: ['name'],
      registers,
    });
    this.analysisCache = new client.Counter({
      name: 'zhzy_analysis_cache_total',
      help: 'Analysis reads served from memory (hit), updated from what changed (update) or computed (miss), by cache (model, point); ADR 0021, 0030',
      labelNames: ['cache', 'result'],
      registers,
    });
    const poolStats = options.poolStats;
    if (poolStats) {
      const gauge = (name: string, help: string, pick: (s: PoolStats) => number) =>
        new client.Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(pick(poolStats()));
          },
        });
      gauge(
        'zhzy_db_pool_connections',
        'PostgreSQL connections open in this instance’s pool',
        (s) => s.total,
      );
      gauge('zhzy_db_pool_idle_connections', 'Idle PostgreSQL connections in the pool', (s) => s.idle);
      gauge('zhzy_db_pool_waiting_requests', 'Queries waiting for a pooled connection', (s) => s.waiting);
    }
  }

  /** Wraps a job queue so every handler's runs are counted and timed; the queue behaves as before. */
  meterJobs(queue: JobQueue): JobQueue {
    return {
      work: (name: string, handler: JobHandler, options?: { concurrency?: number }) =>
        queue.work(
          name,
          async (payload: JobPayload) => {
            const end = this.jobDuration.startTimer({ name });
            this.jobsRunning.inc({ name });
            try {
              await handler(payload);
              this.jobs.inc({ name, outcome: 'completed' });
            } catch (error) {
              this.jobs.inc({ name, outcome: 'failed' });
              throw error;
            } finally {
              this.jobsRunning.dec({ name });
              end();
            }
          },
          options,
        ),
      enqueue: (name, payload, options) => queue.enqueue(name, payload, options),
      drain: () => queue.drain(),
      close: () => queue.close(),
    };
  }
}
