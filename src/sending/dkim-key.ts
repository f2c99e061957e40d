import { createPrivateKey } from 'node:crypto';

export class DkimKeyError extends Error {
  override readonly name = 'DkimKeyError';
}

/**
 * Checks a DKIM private key before it is stored. nodemailer signs with RSA only and, when signing
 * fails, sends the message unsigned without a word, so a key it cannot use must be refused here,
 * at the API, rather than discovered later in a receiver's spam folder.
 */
export function checkDkimPrivateKey(pem: string): void {
  let key;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new DkimKeyError('dkim.privateKey is not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new DkimKeyError(`dkim.privateKey must be an RSA key, not ${key.asymmetricKeyType ?? 'unknown'}`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  // RFC 8301: verifiers must not accept signatures from keys shorter than 1024 bits.
  if (bits < 1024) throw new DkimKeyError(`dkim.privateKey is ${bits} bits; at least 1024 (better 2048) are required`);
}
