import type { DailyActivity } from '../../campaigns/reporting/daily-activity';
import { dailyActivityChart } from '../charts/daily-activity-chart';
import { renderChartSvg } from '../charts/render-chart';

/** The campaign page's chart of its last days: the same spec the emailed report draws as a PNG. */
export async function dailyChartSvg(days: readonly DailyActivity[]): Promise<string> {
  return renderChartSvg(dailyActivityChart(days, { title: `Sent, opened, clicked and replied per day, last ${days.length} days` }));
}
