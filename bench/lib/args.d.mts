// Types of bench/lib/args.mjs for the tests in test/bench/.
export function parseFlags(argv: readonly string[]): Record<string, string>;
export function scriptArgs(argv?: readonly string[]): {
  args: Record<string, string>;
  dist: string;
  load: (file: string) => Promise<Record<string, unknown>>;
};
