/** `true` when A and B are the same type, `never` otherwise: `const check: Same<A, B> = true` fails to compile when they drift apart. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
