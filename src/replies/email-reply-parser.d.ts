// The package ships no types; this declares the small part of it the reply parsing uses.
declare module 'email-reply-parser' {
  interface Fragment {
    getContent(): string;
    isHidden(): boolean;
    isQuoted(): boolean;
    isSignature(): boolean;
  }
  interface ParsedEmail {
    getFragments(): Fragment[];
    /** The text of the fragments that are neither quoted history nor a signature. */
    getVisibleText(): string;
  }
  class EmailReplyParser {
    read(text: string): ParsedEmail;
  }
  export = EmailReplyParser;
}
