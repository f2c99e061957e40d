import { Type } from '@sinclair/typebox';

/** The brand filter of Surface B's statistics (costs and email gateway). */
export const BrandId = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'Only this brand: the host of a campaign\'s brandUrl (target_url on Surface A), e.g. acme.com. Matched without case and without a leading www.',
});

/**
 * A brand filter as brand ids are made from a campaign's site (lower-case host without www.), so
 * `www.Acme.com` finds the campaigns of `acme.com`.
 */
export function brandFilter(brandId: string | undefined): string | null {
  if (brandId === undefined) return null;
  return brandId.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}
