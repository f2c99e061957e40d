import type { QueryInterface } from 'sequelize';

/**
 * Schedules that fit the people (issue 28, docs/decisions.md "Schedules"): the rules of a
 * campaign's sending days beyond frequency and window, and each enrolled lead's own zone.
 *
 * - campaigns `schedule_days`: the per-weekday windows (CampaignSchedule.days: ISO weekday as a
 *   string to {startMinute, endMinute}); null: every day of `schedule_frequency` in the window.
 * - `blackout_dates`: local dates (YYYY-MM-DD, sorted) on which nothing is sent, in the zone of
 *   whoever is written; `skip_holidays`: skip the public holidays of each lead's country;
 *   `lead_timezones`: each lead is written in their own local window (`schedule.timezone: "lead"`),
 *   `timezone` then being the zone of leads whose own is not known.
 * - campaign_enrolments `time_zone`: the lead's IANA zone as resolved at enrolment (null: neither
 *   city nor country gave one); `time_zone_source`: city or country (null: none found);
 *   `country_code`: ISO 3166-1 alpha-2, for holidays. `campaign_enrolments_zone_groups` serves the
 *   sending batch's first question, which (zone, country) groups of a campaign have rows under way
 *   (a scan of the campaign's rows took 46-80 ms at 50,000 leads; the index 17-20 ms).
 *
 * Every column has a default or is nullable: campaigns stored before keep their behaviour.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE campaigns
  ADD COLUMN schedule_days JSONB NULL,
  ADD COLUMN blackout_dates JSONB NOT NULL DEFAULT '[]',
  ADD COLUMN skip_holidays BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN lead_timezones BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE campaign_enrolments
  ADD COLUMN time_zone TEXT NULL,
  ADD COLUMN time_zone_source TEXT NULL CHECK (time_zone_source IN ('city', 'country')),
  ADD COLUMN country_code TEXT NULL;
CREATE INDEX campaign_enrolments_zone_groups ON campaign_enrolments (campaign_id, time_zone, country_code, next_send_day)
  WHERE state IN ('queued', 'in_sequence');
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE campaigns DROP COLUMN IF EXISTS schedule_days, DROP COLUMN IF EXISTS blackout_dates, DROP COLUMN IF EXISTS skip_holidays, DROP COLUMN IF EXISTS lead_timezones;
DROP INDEX IF EXISTS campaign_enrolments_zone_groups;
ALTER TABLE campaign_enrolments DROP COLUMN IF EXISTS time_zone, DROP COLUMN IF EXISTS time_zone_source, DROP COLUMN IF EXISTS country_code;
`);
}
