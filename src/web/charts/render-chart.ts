/**
 * Charts drawn on the server: vega-lite compiled to vega, rendered headless to SVG (no DOM, no
 * browser), and SVG to PNG with resvg (system fonts, no network). The page embeds the SVG; an
 * emailed report attaches the PNG.
 *
 * Speed: compiling and parsing a spec costs far more than drawing it, and a chart's spec changes
 * only with its data. So the spec without its data is compiled and parsed once (cached by its
 * JSON), and each render feeds the data into a fresh view of the parsed runtime.
 */
import type * as VegaModule from 'vega';
import type * as VegaLiteModule from 'vega-lite';
import type { ChartSpec } from './daily-activity-chart';

type Vega = typeof VegaModule;
type Runtime = ReturnType<Vega['parse']>;
type Libraries = { vega: Vega; compile: (typeof VegaLiteModule)['compile'] };

let libraries: Promise<Libraries> | undefined;

/** vega and vega-lite are ESM with top-level await: loaded once, dynamically, from this CommonJS code (types only are imported statically). */
function load(): Promise<Libraries> {
  libraries ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vl]) => ({ vega, compile: vl.compile }));
  return libraries;
}

/** Parsed runtimes by the spec's JSON without its data; a handful of chart shapes exist, so it stays small. */
const runtimes = new Map<string, Promise<Runtime>>();
const MAX_RUNTIMES = 32;

async function runtimeOf(spec: ChartSpec): Promise<Runtime> {
  // The description names the figures, so it changes with the data: set on the view instead (renderChartSvg).
  const shape = JSON.stringify({ ...spec, description: undefined, data: { name: spec.data.name } });
  let runtime = runtimes.get(shape);
  if (runtime === undefined) {
    runtime = load().then(({ vega, compile }) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const compiled = compile(JSON.parse(shape) as any).spec;
      return vega.parse(compiled);
    });
    if (runtimes.size >= MAX_RUNTIMES) runtimes.delete(runtimes.keys().next().value!);
    runtimes.set(shape, runtime);
    runtime.catch(() => runtimes.delete(shape));
  }
  return runtime;
}

/** The chart as an SVG document (with its aria-label and title), ready to embed in a page. */
export async function renderChartSvg(spec: ChartSpec): Promise<string> {
  const [{ vega }, runtime] = await Promise.all([load(), runtimeOf(spec)]);
  const view = new vega.View(runtime, { renderer: 'none', logLevel: vega.Error });
  try {
    // vega's transforms annotate the tuples they are given: hand it copies.
    view.data(spec.data.name, spec.data.values.map((v) => ({ ...v })));
    await view.runAsync();
    const svg = await view.toSVG();
    return typeof spec.description === 'string' ? labelled(svg, spec.description) : svg;
  } finally {
    view.finalize();
  }
}

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The SVG as one image to assistive technology: role img, the description as its label and title
 * (vega labels its parts but not the whole).
 */
function labelled(svg: string, description: string): string {
  const open = svg.indexOf('>', svg.indexOf('<svg'));
  return `${svg.slice(0, open).replace('<svg', `<svg role="img" aria-label="${xml(description)}"`)}><title>${xml(description)}</title>${svg.slice(open + 1)}`;
}

/** The chart as a PNG at `scale` times its size (2: sharp on high-density screens and in mail clients). */
export async function renderChartPng(spec: ChartSpec, scale = 2): Promise<Buffer> {
  const svg = await renderChartSvg(spec);
  const { Resvg } = await import('@resvg/resvg-js');
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: '#ffffff',
    font: { loadSystemFonts: true, defaultFontFamily: 'Liberation Sans', sansSerifFamily: 'Liberation Sans' },
  }).render();
  return png.asPng();
}
