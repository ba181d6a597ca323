import { language, t } from '../../i18n';
import 'ol/ol.css';
import { useEffect, useRef } from 'react';
import OlMap from 'ol/Map';
import View from 'ol/View';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import Collection from 'ol/Collection';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import TileLayer from 'ol/layer/Tile';
import XYZ from 'ol/source/XYZ';
import GeoJSON from 'ol/format/GeoJSON';
import Translate from 'ol/interaction/Translate';
import { defaults as defaultControls } from 'ol/control/defaults';
import { fromLonLat, toLonLat } from 'ol/proj';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type { FeatureLike } from 'ol/Feature';
import { MAP_DEFAULT } from '../../../domain/constants';
import kuwait from './kuwait.geo.json';

/**
 * The address map: Kuwait's bundled outline (governorates, islands, area names) as the base layer,
 * so it works offline; tiles on top only when VITE_MAP_TILE_URL names a tile server
 * (an XYZ template such as https://tile.example.com/{z}/{x}/{y}.png). The marker is dragged
 * (or placed with a tap) and reports its latitude and longitude.
 *
 * MAP_DEFAULT.center is [latitude, longitude]; OpenLayers wants [longitude, latitude].
 */
export default function AddressMap({ latitude, longitude, onMove, label }: {
  latitude: number;
  longitude: number;
  onMove(latitude: number, longitude: number): void;
  label?: string;
}) {
  const target = useRef<HTMLDivElement>(null);
  const marker = useRef<Feature<Point>>(null);
  const moveRef = useRef(onMove);
  moveRef.current = onMove;

  useEffect(() => {
    const el = target.current!;
    const pin = new Feature(new Point(fromLonLat([longitude, latitude])));
    marker.current = pin;
    const pins = new Collection([pin]);
    const tileUrl = import.meta.env.VITE_MAP_TILE_URL as string | undefined;
    const outline = new VectorSource({
      features: new GeoJSON().readFeatures(kuwait, { featureProjection: 'EPSG:3857' }),
    });
    const map = new OlMap({
      target: el,
      controls: defaultControls({ attribution: !!tileUrl, rotate: false }),
      layers: [
        ...(tileUrl ? [] : [new VectorLayer({ source: outline, style: outlineStyle })]),
        ...(tileUrl ? [new TileLayer({ source: new XYZ({ url: tileUrl, crossOrigin: 'anonymous' }) })] : []),
        ...(tileUrl ? [new VectorLayer({ source: outline, style: (f: FeatureLike, r: number) => (f.get('kind') === 'area' ? outlineStyle(f, r) : undefined) })] : []),
        new VectorLayer({ source: new VectorSource({ features: pins }), style: pinStyle, zIndex: 10 }),
      ],
      view: new View({ center: fromLonLat([MAP_DEFAULT.center[1], MAP_DEFAULT.center[0]]), zoom: MAP_DEFAULT.zoom }),
    });
    const report = () => {
      const [lon, lat] = toLonLat(pin.getGeometry()!.getCoordinates());
      moveRef.current(round(lat), round(lon));
    };
    const translate = new Translate({ features: pins, hitTolerance: 12 });
    translate.on('translateend', report);
    map.addInteraction(translate);
    // A tap elsewhere on the map moves the pin there too (easier than dragging on a phone).
    map.on('singleclick', (e) => {
      if (map.hasFeatureAtPixel(e.pixel, { hitTolerance: 12, layerFilter: (l) => l.getZIndex() === 10 })) return;
      pin.getGeometry()!.setCoordinates(e.coordinate);
      report();
    });
    // Where the pin is on screen, for browser tests and assistive tooling.
    map.on('postrender', () => {
      const px = map.getPixelFromCoordinate(pin.getGeometry()!.getCoordinates());
      if (px) { el.dataset.markerX = String(Math.round(px[0])); el.dataset.markerY = String(Math.round(px[1])); }
    });
    const resize = new ResizeObserver(() => map.updateSize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      map.setTarget(undefined);
      map.dispose();
      marker.current = null;
    };
    // The map is made once; later coordinates arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const geom = marker.current?.getGeometry();
    if (!geom) return;
    const [lon, lat] = toLonLat(geom.getCoordinates());
    if (round(lat) !== round(latitude) || round(lon) !== round(longitude)) geom.setCoordinates(fromLonLat([longitude, latitude]));
  }, [latitude, longitude]);

  return (
    // A map is not mirrored: west stays on the left in Arabic too.
    <div className="address-map" dir="ltr" ref={target} role="application" tabIndex={0}
      aria-label={label ? t('address.mapIn', { area: label }) : t('address.map')} data-testid="address-map" />
  );
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

// Land in sand, over the sea-blue map background (address.css); tiles, when configured, cover both.
const governorateFill = new Fill({ color: 'rgba(246, 239, 226, 0.92)' });
const islandFill = new Fill({ color: 'rgba(246, 239, 226, 0.92)' });
const border = new Stroke({ color: 'rgba(196, 111, 14, 0.7)', width: 1.5 });

function outlineStyle(feature: FeatureLike, resolution: number): Style {
  const kind = feature.get('kind');
  // The labels in the shop's language: the outline carries each name in English and Arabic.
  const name = ((language() === 'ar' && feature.get('nameAr')) || feature.get('name')) as string;
  if (kind === 'area') {
    // Area names only once zoomed in far enough to read them.
    return new Style({
      image: new Circle({ radius: 2.5, fill: new Fill({ color: '#5c6b7a' }) }),
      text: resolution < 80 ? new Text({ text: name, offsetY: -10, font: '12px sans-serif', fill: new Fill({ color: '#1f2a36' }), stroke: new Stroke({ color: '#fff', width: 3 }) }) : undefined,
    });
  }
  return new Style({
    fill: kind === 'island' ? islandFill : governorateFill,
    stroke: border,
    text: new Text({ text: name, font: '600 13px sans-serif', fill: new Fill({ color: '#c46f0e' }), stroke: new Stroke({ color: '#fff', width: 3 }), overflow: true }),
  });
}

const pinStyle = [
  new Style({ image: new Circle({ radius: 16, fill: new Fill({ color: 'rgba(31, 42, 54, 0.18)' }) }) }),
  new Style({ image: new Circle({ radius: 10, fill: new Fill({ color: '#e8891c' }), stroke: new Stroke({ color: '#fff', width: 3 }) }) }),
];
