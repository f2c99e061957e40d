/** The part of mailchecker's Node entry this service uses (the package ships no types). */
declare module 'mailchecker' {
  /** Every disposable domain the package lists, lower case. */
  export function blacklist(): ReadonlySet<string>;
  export function isValid(email: string): boolean;
}
