// autocannon ships no types; this is the part of its programmatic API (its README in node_modules/autocannon,
// v8) the benchmarks use.
declare module 'autocannon' {
  interface Histogram {
    readonly average: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
  }

  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Array<RawRequest & { setupRequest?: (request: RawRequest) => RawRequest }>;
  }

  interface Result {
    readonly requests: Histogram;
    readonly latency: Histogram;
    readonly non2xx: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly statusCodeStats: Record<string, { count: number }>;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
