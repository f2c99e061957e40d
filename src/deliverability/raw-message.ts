import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';

/** nodemailer's own stream transport: builds the message exactly as SMTP would carry it, sends nothing. */
const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/** The raw MIME of a message as the service would send it (headers, parts, encodings, DKIM). */
export async function rawMessage(message: Mail.Options): Promise<Buffer> {
  const info = await builder.sendMail(message);
  return info.message as Buffer;
}
