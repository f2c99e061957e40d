import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { CampaignAsStored } from '../../src/campaigns/edit/campaign-patch';
import { presetSequence } from '../../src/campaigns/model/sequence';
import { findTemplate } from '../../src/campaigns/model/templates';
import { bodyOfForm, changedMembers } from '../../src/web/pages/campaign-edit/form-body';
import { formOfCampaign } from '../../src/web/pages/campaign-edit/form-values';
import { launchChromium, screenshot, seriousViolations, signInWithKey } from '../e2e/support/browser';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';
import { signIn } from '../support/dashboard-session';
import { eventually } from '../support/eventually';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

/**
 * The campaign's edit form, its history of changes, Duplicate and Start, in a real browser
 * (Debian's Chromium, headless) on the embedded stack: the API, a Temporal dev server and the
 * worker run the campaign, so an edit from the page goes through the workflow's Update as the
 * API's PATCH does, and the API's GET is the judge of what changed. axe-core on every page.
 */

const HOME = '<html><head><title>Acme Analytics</title></head><body><h1>Acme Analytics</h1></body></html>';
const NAME = 'Spring launch';
const EDITED = 'Spring launch, Wednesdays';
/** The steps of the template the campaign is created with (all written by the AI writer). */
const PRESET_STEPS = findTemplate('sales_outreach')!.steps.length;
/** The form's "add a step": the step after the preset's. */
const NEW_STEP = PRESET_STEPS + 1;

/** What the tests read of Surface A's GET /campaigns/:id. */
interface CampaignA {
  status: string;
  budget: { max_daily_usd: number | null };
  schedule: { days: Record<string, { start: string; end: string }> | null; blackout_dates: string[] };
  sequence: { steps: Array<{ step: number; delay_days: number; variants: Array<{ mode: string; subject: string | null; body: string | null }> }> };
}

interface Change {
  kind: string;
  by: { via: string; key_prefix: string };
  changes: Array<{ field: string; from: unknown; to: unknown }>;
}

describe('dashboard: the edit form turns into the PATCH the API takes (no server)', () => {
  const preset = presetSequence(findTemplate('sales_outreach')!);
  const campaign: CampaignAsStored = {
    name: 'Q1',
    targetAudience: 'CTOs in Berlin',
    audienceFilters: null,
    audienceSource: 'parser',
    targetOutcome: null,
    valueForTarget: null,
    calendarLink: null,
    budget: { dailyUsd: 50, weeklyUsd: null, monthlyUsd: null },
    schedule: { frequency: 'weekdays', timezone: 'Europe/Berlin', leadTimezones: false, window: { startMinute: 540, endMinute: 1020 }, days: null, blackoutDates: [], skipHolidays: false },
    trialDays: null,
    startDate: null,
    reporting: { frequency: null, email: null, webhookUrl: null },
    sequence: { source: 'custom', preset: null, steps: [{ delayDays: 0, variants: [{ id: 'A', weight: 2, mode: 'template', subject: 'Hi', body: 'Line one\n\nLine two', instructions: null }, { id: 'B', weight: 1, mode: 'ai', subject: null, body: null, instructions: 'Be brief' }], autoWinner: { metric: 'reply_rate', minSends: 100, confidence: 0.95 } }] },
    leadControl: { leadListIds: [], allowDuplicateLeads: false, stopCompanyOnReply: true, maxFirstEmailsPerDomainPerDay: null, skipRiskyLeads: false },
    tracking: { trackOpens: true, trackClicks: true, plainTextOnly: false },
  };
  const form = formOfCampaign(campaign, campaign.sequence);
  const base = bodyOfForm(form, campaign.sequence);
  const patchOf = (changes: Record<string, string | undefined>) => {
    const next = Object.fromEntries(Object.entries({ ...form, ...changes }).filter((e): e is [string, string] => e[1] !== undefined));
    return changedMembers(bodyOfForm(next, campaign.sequence), base);
  };

  it('sends nothing for the form as it came, even with its text posted back with CR LF line breaks', () => {
    expect(patchOf({})).to.deep.equal({});
    expect(patchOf({ s1_a_body: 'Line one\r\n\r\nLine two' })).to.deep.equal({});
    const fromPreset = formOfCampaign({ ...campaign, sequence: null }, preset);
    expect(changedMembers(bodyOfForm(fromPreset, preset), bodyOfForm(fromPreset, preset))).to.deep.equal({});
  });

  it('sends only what changed, the weekdays without a frequency, and keeps the weights and the variant test of a step', () => {
    expect(patchOf({ name: 'Q2', budget_daily: '', day_wed: 'on', day_wed_start: '9:30', day_wed_end: '12:00', blackout_dates: '2030-12-24, 2030-12-31\r\n2031-01-01' })).to.deep.equal({
      name: 'Q2',
      budget: { max_daily_usd: null },
      schedule: { days: { wed: { start: '09:30', end: '12:00' } }, blackout_dates: ['2030-12-24', '2030-12-31', '2031-01-01'] },
    });
    const sequence = patchOf({ s1_b_instructions: 'Be very brief', s2_delay: '3', s2_a_body: 'Following up' }).sequence!;
    expect(sequence).to.have.length(2);
    expect(sequence[0]).to.deep.include({ delay_days: 0, auto_winner: { metric: 'reply_rate', min_sends: 100, confidence: 0.95 } });
    expect(sequence[0]!.variants).to.deep.equal([
      { weight: 2, mode: 'template', subject: 'Hi', body: 'Line one\n\nLine two' },
      { weight: 1, mode: 'ai', subject: null, instructions: 'Be very brief' },
    ]);
    expect(sequence[1]).to.deep.equal({ delay_days: 3, variants: [{ mode: 'template', subject: null, body: 'Following up' }] });
    // Unticked lead-control boxes are false; a ticked one true.
    expect(patchOf({ stop_company_on_reply: undefined, skip_risky_leads: 'on' })).to.deep.equal({ stop_company_on_reply: false, skip_risky_leads: true });
  });

  it('names the member of a value only a form can get wrong', () => {
    expect(() => patchOf({ budget_weekly: 'ten' })).to.throw(/^budget\.max_weekly_usd: "ten" is not an amount in USD/);
    expect(() => patchOf({ window_end: '25:00' })).to.throw(/^schedule\.send_window\.end: "25:00" is not a time/);
    expect(() => patchOf({ s2_a_body: 'A new step without its delay' })).to.throw(/^sequence\[1\] \(step 2\) delay_days: enter the days/);
    expect(() => patchOf({ max_first_per_domain: '2.5' })).to.throw(/^max_first_emails_per_domain_per_day: "2.5" is not a whole number/);
  });

  it('sends the mailboxes only when the choice changed, as a set, and refuses "Only these" with nothing ticked', () => {
    // A campaign on every mailbox: its form sends no mailbox member until the choice changes.
    expect(form.mailboxes).to.equal('all');
    expect(patchOf({ mailbox_mbx_one: 'on' })).to.deep.equal({});
    expect(patchOf({ mailboxes: 'only', mailbox_mbx_two: 'on', mailbox_mbx_one: 'on' })).to.deep.equal({ mailbox_ids: ['mbx_one', 'mbx_two'] });
    expect(() => patchOf({ mailboxes: 'only' })).to.throw(/^mailbox_ids: tick at least one mailbox under "Only these"/);

    // A campaign with a set: ticked as stored, the same boxes posted in another order are no change.
    const withSet = { ...campaign, mailboxIds: ['mbx_two', 'mbx_one'] };
    const setForm = formOfCampaign(withSet, campaign.sequence);
    expect(setForm).to.deep.include({ mailboxes: 'only', mailbox_mbx_one: 'on', mailbox_mbx_two: 'on' });
    const setBase = bodyOfForm(setForm, campaign.sequence);
    const setPatchOf = (changes: Record<string, string | undefined>) => {
      const next = Object.fromEntries(Object.entries({ ...setForm, ...changes }).filter((e): e is [string, string] => e[1] !== undefined));
      return changedMembers(bodyOfForm(next, campaign.sequence), setBase);
    };
    expect(setPatchOf({})).to.deep.equal({});
    expect(setPatchOf({ mailbox_mbx_two: undefined })).to.deep.equal({ mailbox_ids: ['mbx_one'] });
    expect(setPatchOf({ mailboxes: 'all' })).to.deep.equal({ mailbox_ids: null });
    // A form that offered no choice (an account without mailboxes) posts no radio: nothing is sent.
    expect(setPatchOf({ mailboxes: undefined, mailbox_mbx_one: undefined, mailbox_mbx_two: undefined })).to.deep.equal({});
  });
});

describe('dashboard: editing a campaign, its changes, Duplicate and Start (real browser, embedded stack)', function () {
  const t = useCampaignStack();
  let site: FakeSite;
  let browser: Browser;
  let page: Page;
  let key = '';
  let accountId = '';
  let campaignId = '';

  const api = async <T = CampaignA>(path: string) => {
    const res = await request<T>(`${t.api.baseUrl}${path}`, { headers: surfaceA(key) });
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };
  /** A campaign's name: Surface B's GET shows it (Surface A's does not). */
  const nameOf = async (id: string): Promise<string> => {
    const res = await request<{ name: string }>(`${t.api.baseUrl}/v1/campaigns/${id}`, { headers: surfaceB(key) });
    expect(res.status, res.text).to.equal(200);
    return res.body.name;
  };
  const campaignPage = (id: string) => `${t.api.baseUrl}/dashboard/campaigns/${id}`;

  before(async () => {
    browser = await launchChromium();
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'pro', 'Edit Co'));
    const created = await request<{ id: string }>(`${t.api.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { ...surfaceA(key), 'content-type': 'application/json' },
      body: JSON.stringify({ name: NAME, mcp: 'sales_outreach', target_url: site.origin, schedule: { send_window: { start: '00:00', end: '24:00' } } }),
    });
    expect(created.status, created.text).to.equal(201);
    campaignId = created.body.id;
    await eventually(async () => ((await api<{ status: string }>(`/campaigns/${campaignId}`)).status === 'running' ? true : undefined));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInWithKey(page, t.api.baseUrl, key);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it('edits the name, the daily budget, a Wednesday-only window and two blackout dates: the page, its Changes and the API show them', async () => {
    await page.goto(campaignPage(campaignId));
    expect(await page.locator('#no-changes').innerText()).to.include('Nothing has been changed');
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(new RegExp(`/dashboard/campaigns/${campaignId}/edit$`));
    expect(await page.locator('#name').inputValue()).to.equal(NAME);
    expect(await page.locator('#window_end').inputValue()).to.equal('24:00');
    expect(await page.locator('fieldset.step').count()).to.equal(PRESET_STEPS + 1); // and "add a step"
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'campaign-edit');

    await page.locator('#name').fill(EDITED);
    await page.locator('#budget_daily').fill('25');
    await page.locator('#day_wed').check();
    await page.locator('#day_wed_start').fill('14:00');
    await page.locator('#day_wed_end').fill('18:00');
    await page.locator('#blackout_dates').fill('2030-12-24\n2030-12-31');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/notice=edited/);

    expect(await page.locator('#campaign-name').innerText()).to.equal(EDITED);
    expect(await page.locator('#budget tbody tr', { hasText: 'daily' }).locator('td').nth(2).innerText()).to.equal('$25.00');
    expect(await page.locator('#schedule-days').innerText()).to.include('Wed 14:00–18:00');
    expect(await page.locator('#blackout-dates').innerText()).to.equal('2030-12-24, 2030-12-31');
    const row = page.locator('#changes tbody tr').first();
    expect(await row.locator('td').nth(1).innerText()).to.match(/^Dashboard, key \S+/);
    const fields = await row.locator('ul.fields li').allInnerTexts();
    // Exactly the four members changed: the untouched sequence, zone and lead control are no change.
    expect(fields).to.deep.equal([
      `name: ${NAME} → ${EDITED}`,
      'budget.max_daily_usd: none → 25',
      'schedule.days: none → Wed 14:00–18:00',
      'schedule.blackout_dates: none → 2030-12-24, 2030-12-31',
    ]);
    expect(await seriousViolations(page)).to.deep.equal([]);

    const got = await api(`/campaigns/${campaignId}`);
    expect(await nameOf(campaignId)).to.equal(EDITED);
    expect(got.budget.max_daily_usd).to.equal(25);
    expect(got.schedule.days).to.deep.equal({ wed: { start: '14:00', end: '18:00' } });
    expect(got.schedule.blackout_dates).to.deep.equal(['2030-12-24', '2030-12-31']);
    expect(got.status).to.equal('running');
    const history = await api<{ changes: Change[] }>(`/campaigns/${campaignId}/changes`);
    expect(history.changes).to.have.length(1);
    expect(history.changes[0]!.by.via).to.equal('dashboard');
  });

  it('shows a window that ends before it starts next to the form, keeps what was typed, and changes nothing', async () => {
    const before = await api(`/campaigns/${campaignId}`);
    await page.goto(`${campaignPage(campaignId)}/edit`);
    expect(await page.locator('#day_wed').isChecked()).to.equal(true);
    await page.locator('#name').fill('Should not stick');
    await page.locator('#day_wed_start').fill('18:00');
    await page.locator('#day_wed_end').fill('09:00');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForLoadState();

    expect(await page.locator('#edit-error').innerText()).to.equal('Nothing was changed: schedule.days.wed: end 09:00 is before start 18:00');
    expect(await page.locator('#name').inputValue()).to.equal('Should not stick');
    expect(await page.locator('#day_wed_start').inputValue()).to.equal('18:00');
    expect(await page.locator('#day_wed_end').inputValue()).to.equal('09:00');
    expect(await page.locator('#budget_daily').inputValue()).to.equal('25');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'campaign-edit-refused');

    const after = await api(`/campaigns/${campaignId}`);
    expect({ schedule: after.schedule, budget: after.budget }).to.deep.equal({ schedule: before.schedule, budget: before.budget });
    expect(await nameOf(campaignId)).to.equal(EDITED);
    expect((await api<{ changes: Change[] }>(`/campaigns/${campaignId}/changes`)).changes).to.have.length(1);
  });

  it('adds a step written by the user: the API shows it after the preset\'s steps, and the change counts the steps', async () => {
    await page.goto(`${campaignPage(campaignId)}/edit`);
    await page.locator(`#s${NEW_STEP}_delay`).fill('5');
    await page.locator(`#s${NEW_STEP}_a_body`).fill('Hi {{ first_name | default: "there" }},\n\none last note from us.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/notice=edited/);
    expect(await page.locator('#changes tbody tr').first().locator('ul.fields li').allInnerTexts()).to.deep.equal([`sequence: ${PRESET_STEPS} steps → ${NEW_STEP} steps`]);

    const got = await api(`/campaigns/${campaignId}`);
    expect(got.sequence.steps).to.have.length(NEW_STEP);
    expect(got.sequence.steps[NEW_STEP - 1]).to.deep.include({ step: NEW_STEP, delay_days: 5 });
    expect(got.sequence.steps[NEW_STEP - 1]!.variants[0]).to.deep.include({ mode: 'template', subject: null, body: 'Hi {{ first_name | default: "there" }},\n\none last note from us.' });
    // The preset's steps are as they were: written by the AI writer, from their instructions.
    expect(got.sequence.steps.slice(0, PRESET_STEPS).map((s) => s.variants[0]!.mode)).to.deep.equal(Array(PRESET_STEPS).fill('ai'));

    // Saved again untouched, the form changes nothing (the new step's text included).
    await page.goto(`${campaignPage(campaignId)}/edit`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/notice=unchanged/);
    expect((await api<{ changes: Change[] }>(`/campaigns/${campaignId}/changes`)).changes).to.have.length(2);
  });

  it('duplicates into a draft whose page offers Start in place of Pause; the draft is edited, then Start makes it starting', async () => {
    await page.goto(campaignPage(campaignId));
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL(/notice=copied/);
    const copyId = /\/dashboard\/campaigns\/([^/?]+)\?/.exec(page.url())![1]!;
    expect(copyId).to.not.equal(campaignId);
    expect(await page.locator('.notice').innerText()).to.match(/draft copy was created/i);
    expect(await page.locator('#campaign-status').innerText()).to.equal('Draft (not started)');
    expect(await page.locator('#controls button').allInnerTexts()).to.deep.equal(['Start']);
    expect(await page.locator('#edit-link').count()).to.equal(1);
    expect(await seriousViolations(page)).to.deep.equal([]);
    const copy = await api(`/campaigns/${copyId}`);
    expect(copy.status).to.equal('draft');
    expect(await nameOf(copyId)).to.equal(`${EDITED} (copy)`);
    expect(copy.schedule.days).to.deep.equal({ wed: { start: '14:00', end: '18:00' } });
    expect(copy.sequence.steps).to.have.length(NEW_STEP);

    // A draft is edited through the same form (written directly: it has no workflow yet).
    await page.locator('#edit-link').click();
    await page.locator('#budget_daily').fill('30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/notice=edited/);
    expect(await page.locator('#campaign-status').innerText()).to.equal('Draft (not started)');
    expect((await api(`/campaigns/${copyId}`)).budget.max_daily_usd).to.equal(30);

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/notice=started/);
    expect(await page.locator('#campaign-status').innerText()).to.match(/^(Starting|Running)/);
    expect(await page.locator('#controls button').allInnerTexts()).to.deep.equal(['Pause', 'Stop']);
    expect(['starting', 'running']).to.include((await api<{ status: string }>(`/campaigns/${copyId}`)).status);
  });

  it('lists every change on its own page, and offers no Edit on a completed campaign, whose form is a 409 page', async () => {
    await page.goto(`${campaignPage(campaignId)}/changes`);
    expect(await page.locator('#changes tbody tr').count()).to.equal(2);
    expect(await page.locator('.pager span').innerText()).to.equal('Page 1 of 1 (2 changes)');
    expect(await seriousViolations(page)).to.deep.equal([]);

    const done = await seedCampaign(accountId, { name: 'Finished', status: 'completed', completedAt: new Date() });
    await page.goto(campaignPage(done.id));
    expect(await page.locator('#edit-link').count()).to.equal(0);
    const answer = await page.goto(`${campaignPage(done.id)}/edit`);
    expect(answer?.status()).to.equal(409);
    expect(await page.locator('main').innerText()).to.include('only a draft, starting, running, paused or budget_paused campaign can be changed');
  });

  it('is usable on a phone: the form and the history scroll only downwards at 375 px', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      await signInWithKey(phone, t.api.baseUrl, key);
      for (const path of [`/dashboard/campaigns/${campaignId}/edit`, `/dashboard/campaigns/${campaignId}/changes`]) {
        await phone.goto(`${t.api.baseUrl}${path}`);
        expect(await phone.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), path).to.be.at.most(0);
      }
    } finally {
      await phone.close();
    }
  });

  it('refuses an edit without the form\'s CSRF token (403), and another account\'s campaign is a 404', async () => {
    const s = await signIn(t.api.baseUrl, key);
    const forged = await s.post(`/dashboard/campaigns/${campaignId}/edit`, { name: 'Forged', _csrf: 'forged' });
    expect(forged.status).to.equal(403);
    expect(await nameOf(campaignId)).to.equal(EDITED);
    const other = await createAccount(t.db.sequelize, 'pro', 'Other Co');
    const theirs = await seedCampaign(other.accountId, { name: 'Theirs' });
    expect((await s.get(`/dashboard/campaigns/${theirs.id}/edit`)).status).to.equal(404);
    expect((await s.get(`/dashboard/campaigns/${theirs.id}/changes`)).status).to.equal(404);
    const token = await s.csrf(`/dashboard/campaigns/${campaignId}`);
    expect((await s.post(`/dashboard/campaigns/${theirs.id}/duplicate`, { _csrf: token })).status).to.equal(404);
  });
});
