// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Blueprint draws an icon given by name (`icon="trash"`) from its whole icon set, loaded on first
 * use: two chunks of every icon's paths, about 590 KB (16 px and 20 px). An icon given as a
 * component (`icon={<TrashIcon />}`) carries only its own paths. So the console passes components.
 */
const NAMED_ICON = /\b(?:icon|leftIcon|rightIcon)(?:="[a-z0-9-]+"|=\{[^}<]*'[a-z0-9-]+'[^}<]*\}|: [^,\n<]*'[a-z0-9-]+')/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String)
    .filter((f) => /\.tsx?$/.test(f) && !f.includes('generated'))
    .map((f) => path.join(dir, f));
}

describe('Blueprint icons', () => {
  it('the check finds an icon given by name (so it can fail)', () => {
    const sample = `<Button icon="trash" /> <Alert icon={copied ? 'tick' : 'duplicate'} /> { icon: 'shop', label } { icon: open ? 'star' : 'people' }`;
    expect(sample.match(NAMED_ICON)).toHaveLength(4);
    expect('<Button icon={<TrashIcon />} />'.match(NAMED_ICON)).toBeNull();
  });

  it('no screen gives Blueprint an icon by name', () => {
    const found = sources('src').flatMap((file) =>
      (readFileSync(file, 'utf8').match(NAMED_ICON) ?? []).map((hit) => `${file}: ${hit}`));
    expect(found).toEqual([]);
  });
});
