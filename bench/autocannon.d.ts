/** The part of autocannon's API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface Options { url: string; method?: string; body?: string; headers?: Record<string, string>; connections?: number; duration?: number; idReplacement?: boolean }
  interface Histogram { average: number; p50: number; p99: number; total: number }
  interface Result { requests: Histogram; latency: Histogram; non2xx: number; errors: number }
  export default function autocannon(options: Options): Promise<Result>;
}
