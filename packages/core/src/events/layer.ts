import { Layer } from "effect"
import { feature } from "../http/Feature"
import { CheckIns } from "./CheckIns"
import { Events } from "./Events"
import { EventsHttp } from "./Http"

export const eventsFeature = feature(Layer.mergeAll(Events.Default, CheckIns.Default), EventsHttp)
