// Types of bench/lib/baseline.mjs for the tests in test/bench/.
export function missingEntries(distDir: string, entries: readonly string[]): string[];
export function prepareBaseline(options: { projectRoot: string; ref: string; log: (line: string) => void }): {
  ref: string;
  commit: string;
  short: string;
  subject: string;
  appRoot: string;
  sameDeps: boolean;
  dispose: () => void;
};
