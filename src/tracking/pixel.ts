/**
 * The open pixel: a 1x1 transparent GIF (43 bytes), built once. Every pixel request gets these
 * same bytes and headers, valid token or not, so the response says nothing about the token.
 */
export const TRANSPARENT_GIF: Buffer = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

export const PIXEL_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'image/gif',
  // Each load is an open to count (and the first one its time): no shared or browser caching.
  'Cache-Control': 'no-store, private',
};
