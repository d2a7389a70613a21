import { changeset, transforms } from 'vega-dataflow';
import * as encode from 'vega-encode';
import * as dataTransforms from 'vega-transforms';
import { Warn } from 'vega-util';
import { View } from 'vega-view';
import * as viewTransforms from 'vega-view-transforms';
import * as voronoi from 'vega-voronoi';
import { VEGA_TRANSFORMS } from '../vega-transforms.js';

/**
 * The page's own Vega: its View (which runs a runtime description; no parser: the charts were parsed when
 * the runner was built) with only the transforms the charts use registered, bundled into the page script
 * from Vega's packages (about 370 kB minified instead of 520 kB for Vega's whole browser build, which
 * includes the parser and transforms no chart of the page uses).
 */
const packages: readonly Record<string, unknown>[] = [dataTransforms, viewTransforms, encode, voronoi];
for (const name of VEGA_TRANSFORMS) {
  const transform = packages.find((p) => p[name] !== undefined)?.[name];
  if (transform === undefined) throw new Error(`Vega has no transform ${name}`);
  transforms[name] = transform;
}

export { changeset, View, Warn };
