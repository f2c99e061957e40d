import { spawnSync } from 'node:child_process';

/**
 * The fuzzer makes the service act on made-up input: campaigns whose target site the worker
 * scrapes, webhook URLs it posts to, mailboxes whose SMTP host it dials, provider keys it tries.
 * None of that may leave the machine, so the service and the fuzzer run in a network namespace of
 * their own that has nothing but a loopback interface: every outside address is unreachable there
 * (the kernel refuses at once, nothing is sent), DNS included.
 *
 * `unshare --net` needs CAP_SYS_ADMIN (root, as on the project's machines and CI).
 * `FUZZ_ISOLATION=none` runs without the namespace, for a machine that has no network anyway.
 */
export type Isolation = 'netns' | 'none';

export function isolationFromEnv(env: NodeJS.ProcessEnv = process.env): Isolation {
  const value = env['FUZZ_ISOLATION'] ?? 'netns';
  if (value !== 'netns' && value !== 'none') throw new Error(`FUZZ_ISOLATION=${value}: expected netns or none`);
  return value;
}

/** Fails with what to do when this machine cannot make a network namespace. */
export function assertCanIsolate(): void {
  const probe = spawnSync('unshare', ['--net', 'true'], { encoding: 'utf8' });
  if (probe.status === 0) return;
  const why = probe.error ? probe.error.message : probe.stderr.trim();
  throw new Error(
    `npm run fuzz runs the service in a network namespace of its own, and \`unshare --net\` failed here: ${why}\n` +
      'Run it as root (or with CAP_SYS_ADMIN), or set FUZZ_ISOLATION=none on a machine that has no network.',
  );
}

/** The command that runs `cmd args` inside a new network namespace (unshare execs it: signals reach it directly). */
export function isolatedCommand(cmd: string, args: readonly string[]): { cmd: string; args: string[] } {
  return { cmd: 'unshare', args: ['--net', '--', cmd, ...args] };
}

// struct ifreq is 40 bytes: the interface name (16), then the flags (a short) and padding.
const LOOPBACK_UP = `
import fcntl, socket, struct
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
flags = struct.unpack('16sH22x', fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack('16sH22x', b'lo', 0)))[1]
fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack('16sH22x', b'lo', flags | IFF_UP))
`;

/**
 * A new namespace's loopback interface starts down. Brought up with two ioctls from Python (which
 * the fuzzer needs anyway) rather than `ip link`, so iproute2 need not be installed.
 */
export function bringLoopbackUp(python: string): void {
  const result = spawnSync(python, ['-c', LOOPBACK_UP], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`could not bring up the loopback interface of the fuzz namespace: ${result.error?.message ?? result.stderr}`);
}
