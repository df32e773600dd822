import { Layer } from "effect"

/**
 * What a feature brings to the composition root (`app/features.ts`): its use-case services, and its
 * HttpApi group handlers with those services provided. What either still needs (platform ports,
 * other features' contracts) the root provides.
 */
export interface Feature<S, SE, SR, H, HE, HR> {
  readonly services: Layer.Layer<S, SE, SR>
  readonly http: Layer.Layer<H, HE, HR>
}

export const feature = <S, SE, SR, H, HE, HR>(
  services: Layer.Layer<S, SE, SR>,
  handlers: Layer.Layer<H, HE, HR>
): Feature<S, SE, SR, H, HE | SE, Exclude<HR, S> | SR> => ({
  services,
  http: handlers.pipe(Layer.provide(services))
})
