import { useEffect, useState } from 'react';
import { TIMINGS } from '../../../domain/constants';
import { language, t } from '../../i18n';

/** Up to three product images, shown after TIMINGS.productSliderMs (SPEC.md 2.1 "Product detail"). */
export function ImageCarousel({ images, alt }: { images: string[]; alt: string }) {
  const [shown, setShown] = useState(false);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), TIMINGS.productSliderMs);
    return () => clearTimeout(timer);
  }, []);
  const slides = images.slice(0, 3);
  if (!slides.length) return <div className="carousel carousel--empty" aria-hidden="true" />;
  if (!shown) return <div className="carousel carousel--loading" role="status" aria-label={t('product.loadingImages')} />;
  const go = (i: number) => setIndex((i + slides.length) % slides.length);
  return (
    <div className="carousel" role="region" aria-roledescription="carousel" aria-label={t('product.images', { name: alt })} data-testid="product-carousel">
      <div className="carousel__track" style={{ transform: `translateX(${language() === 'ar' ? '' : '-'}${index * 100}%)` }}>
        {slides.map((src, i) => (
          <img key={src} src={src} alt={i === 0 ? alt : t('product.picture', { name: alt, n: i + 1 })} aria-hidden={i !== index} />
        ))}
      </div>
      {slides.length > 1 && (
        <>
          <button type="button" className="carousel__nav carousel__nav--prev" aria-label={t('product.previous')} onClick={() => go(index - 1)}>‹</button>
          <button type="button" className="carousel__nav carousel__nav--next" aria-label={t('product.next')} onClick={() => go(index + 1)}>›</button>
          <div className="carousel__dots">
            {slides.map((src, i) => (
              <button key={src} type="button" aria-label={t('product.pictureN', { n: i + 1 })} aria-current={i === index} className={i === index ? 'is-active' : ''} onClick={() => go(i)} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
