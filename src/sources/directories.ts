// Whether a path is a directory now, the one way every layer asks: a missing or unreadable path is not one.
import { statSync } from "node:fs";
import { stat } from "node:fs/promises";

export async function isDirectory(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isDirectory();
  } catch {
    return false;
  }
}

export function isDirectorySync(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
