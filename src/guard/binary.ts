// Executables inside a skill: native binaries by their magic numbers, and files marked executable outside
// `scripts/`. A skill is instructions and readable scripts; a binary is code no reviewer can read.
import type { FileFinding } from "./types.js";

function u32be(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) * 0x1000000 + ((bytes[at + 1] as number) << 16) + ((bytes[at + 2] as number) << 8) + (bytes[at + 3] as number)
  );
}

function u32le(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) + ((bytes[at + 1] as number) << 8) + ((bytes[at + 2] as number) << 16) + (bytes[at + 3] as number) * 0x1000000
  );
}

/** The executable format the bytes start with, or null. `head` is the file's first bytes (4 KB is plenty). */
export function executableFormat(head: Uint8Array): "ELF" | "Mach-O" | "PE" | null {
  if (head.length < 4) return null;
  const magic = u32be(head, 0);
  if (magic === 0x7f454c46) return "ELF";
  if (magic === 0xfeedface || magic === 0xfeedfacf || magic === 0xcefaedfe || magic === 0xcffaedfe) return "Mach-O";
  // 0xCAFEBABE is a universal Mach-O (a small architecture count follows) or a Java class file (a class-file
  // version of 45 or more follows).
  if (magic === 0xcafebabe && head.length >= 8 && u32be(head, 4) > 0 && u32be(head, 4) < 45) return "Mach-O";
  // MZ, then the offset of the PE header at 0x3C, which must hold "PE\0\0": text that starts with "MZ" is not a PE.
  if (head[0] === 0x4d && head[1] === 0x5a && head.length >= 0x40) {
    const at = u32le(head, 0x3c);
    if (at + 4 <= head.length && u32be(head, at) === 0x50450000) return "PE";
  }
  return null;
}

export function checkBinary(head: Uint8Array): FileFinding[] {
  const format = executableFormat(head);
  if (format === null) return [];
  return [
    {
      rule: "binary-executable",
      severity: "critical",
      reason: `a native ${format} executable: code no reviewer can read`,
      line: 1,
      fix: "Ship the source and build it, or install the tool from its publisher; release the finding if the binary is vetted.",
    },
  ];
}

/** A file with an execute bit outside a `scripts/` folder: `path` is relative to the skill directory. */
export function checkPlacement(path: string, executable: boolean): FileFinding[] {
  if (!executable || path.startsWith("scripts/") || path.includes("/scripts/")) return [];
  return [
    {
      rule: "exec-bit-outside-scripts",
      severity: "medium",
      reason: "marked executable outside scripts/: executables of a skill belong in scripts/ where reviewers look",
      line: 1,
      fix: "Move the file into scripts/, or clear its execute bit (chmod -x).",
    },
  ];
}
