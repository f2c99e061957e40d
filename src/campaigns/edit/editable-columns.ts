/**
 * The columns of a campaigns row an edit may write, and how each is bound. An edit travels from the
 * API through the workflow's history to the activity that writes it: the activity writes only these
 * names (never one taken from the input unchecked), each cast as its column is typed.
 */
export const EDITABLE_COLUMNS = {
  name: 'text',
  target_audience: 'text',
  audience_filters: 'jsonb',
  audience_source: 'text',
  target_outcome: 'text',
  value_for_target: 'text',
  calendar_link: 'text',
  budget_max_daily_usd: 'numeric',
  budget_max_weekly_usd: 'numeric',
  budget_max_monthly_usd: 'numeric',
  schedule_frequency: 'text',
  schedule_trial_days: 'int',
  schedule_start_date: 'date',
  timezone: 'text',
  send_window_start_minute: 'int',
  send_window_end_minute: 'int',
  schedule_days: 'jsonb',
  blackout_dates: 'jsonb',
  skip_holidays: 'boolean',
  lead_timezones: 'boolean',
  reporting_frequency: 'text',
  reporting_email: 'text',
  reporting_webhook_url: 'text',
  lead_list_ids: 'text[]',
  allow_duplicate_leads: 'boolean',
  stop_company_on_reply: 'boolean',
  max_first_emails_per_domain_per_day: 'int',
  skip_risky_leads: 'boolean',
  track_opens: 'boolean',
  track_clicks: 'boolean',
  plain_text_only: 'boolean',
  mailbox_ids: 'text[]',
} as const;

export type EditableColumn = keyof typeof EDITABLE_COLUMNS;

export function isEditableColumn(name: string): name is EditableColumn {
  return Object.hasOwn(EDITABLE_COLUMNS, name);
}

/** Columns that decide who the campaign reaches: a change recounts its audience. */
export const AUDIENCE_COLUMNS: readonly EditableColumn[] = ['audience_filters', 'audience_source', 'lead_list_ids'];

/** `SET col = $n::type` pieces and their values, for the columns given (unknown names are an error). */
export function setClauses(columns: Readonly<Record<string, unknown>>, firstParam: number): { sql: string[]; values: unknown[] } {
  const sql: string[] = [];
  const values: unknown[] = [];
  for (const [name, value] of Object.entries(columns)) {
    if (!isEditableColumn(name)) throw new Error(`column ${name} cannot be edited`);
    const type = EDITABLE_COLUMNS[name];
    values.push(type === 'jsonb' && value !== null ? JSON.stringify(value) : value);
    sql.push(`${name} = $${firstParam + values.length - 1}::${type}`);
  }
  return { sql, values };
}
