// Types for parse-prometheus-text-format (it ships none): the prom2json shape.
declare module "parse-prometheus-text-format" {
  export interface Sample {
    readonly value?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }
  export interface Family {
    readonly name: string;
    readonly help: string;
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    readonly metrics: readonly Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): Family[];
}
