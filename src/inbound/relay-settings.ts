/** What a mail relay must know to hand messages over, shared by both doors and the CLI. */

/** Largest message taken, over HTTP and SMTP. */
export const INBOUND_MAX_BYTES = 10 * 1024 * 1024;
/** The SMTP AUTH user name of a relay; its password is the inbound secret. */
export const INBOUND_SMTP_USER = 'inbound';
