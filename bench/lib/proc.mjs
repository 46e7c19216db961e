// Child processes for the benchmarks: spawn a server, wait for its listening line, read its memory, stop it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

/** The environment git runs in for the benchmarks: no system or user config, no home, so nothing of the machine's
 *  own git setup changes what a clone or fetch does. */
export const GIT_ENV = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: "/nonexistent" };

/** VmRSS and VmHWM (the kernel's peak RSS) of one process, in MiB; null once it is gone. */
export function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
    return { rssMB: kib("VmRSS") / 1024, peakMB: kib("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/** A free loopback port (for servers that take a port number rather than 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Spawn an HTTP server and resolve when a stderr line matches `ready` (its first group, if any, is the port). */
export function spawnHttpServer(command, args, { ready, timeoutMs = 180_000, env } = {}) {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start within ${timeoutMs} ms: ${stderr.slice(-500)}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${stderr.slice(-500)}`));
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      if (stderr.length < 100_000) stderr += chunk;
      const match = stderr.match(ready);
      if (match && !child.readyFired) {
        child.readyFired = true;
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve({
          child,
          pid: child.pid,
          port: match[1] === undefined ? undefined : Number(match[1]),
          readyMs: performance.now() - t0,
          t0,
          stderr: () => stderr,
        });
      }
    });
  });
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export function stop(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** CPU time (in clock ticks) a process has used: utime + stime of /proc/PID/stat; 0 once it is gone. */
export function cpuTicks(pid, withExitedChildren = false) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields 14-17 of proc(5), counted after the name: utime, stime, then the waited-for children's
    const own = Number(fields[11]) + Number(fields[12]);
    return withExitedChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
  } catch {
    return 0;
  }
}

/** Busy clock ticks of the whole machine, all cores (user, nice, system, irq, softirq, steal). */
export function machineBusyTicks() {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = fs
      .readFileSync("/proc/stat", "utf8")
      .split("\n")[0]
      .trim()
      .split(/\s+/)
      .map(Number);
    return user + nice + system + irq + softirq + steal;
  } catch {
    return 0;
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * Watch how much CPU other processes take while a measurement runs, so a figure taken on a busy machine is
 * marked rather than trusted: `const w = watchOthers([serverPid]); …; w.stop()` => cores used by everything
 * that is neither this process nor the given ones (0.5 = half a core on average).
 */
export function watchOthers(pids) {
  const ours = () => cpuTicks(process.pid, true) + pids.reduce((sum, pid) => sum + cpuTicks(pid), 0);
  const t0 = performance.now();
  const busy0 = machineBusyTicks();
  const ours0 = ours();
  return {
    /** `started`: processes spawned after the watch began (all their CPU time is ours). */
    stop(started = []) {
      const seconds = (performance.now() - t0) / 1000;
      const late = started.reduce((sum, pid) => sum + cpuTicks(pid), 0);
      const others = machineBusyTicks() - busy0 - (ours() - ours0) - late;
      return seconds > 0 ? Math.max(0, others / TICKS_PER_SECOND / seconds) : 0;
    },
  };
}

/** Wait (up to `maxMs`) for a half-second in which other processes take under `cores`; resolves to the ms waited. */
export async function waitQuiet({ cores = 0.25, maxMs = 15_000, pids = [] } = {}) {
  const t0 = performance.now();
  while (performance.now() - t0 < maxMs) {
    const watch = watchOthers(pids);
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (watch.stop() < cores) break;
  }
  return performance.now() - t0;
}

/** Wait (up to `maxMs`) until the process itself is idle: under `cores` over a quarter second. A server finishing
 *  its start in the background (watches, the catch-up rescan) would otherwise be measured mid-way. */
export async function waitIdle(pid, { cores = 0.1, maxMs = 10_000 } = {}) {
  const t0 = performance.now();
  while (performance.now() - t0 < maxMs) {
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, 250));
    if ((cpuTicks(pid) - before) / TICKS_PER_SECOND / 0.25 < cores) break;
  }
  return performance.now() - t0;
}
