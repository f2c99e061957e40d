/** An activity was asked about a campaign that is not the account's (or no longer exists): retrying cannot help. */
export class CampaignMissing extends Error {
  override readonly name = 'CampaignMissing';
}
