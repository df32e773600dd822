import { Layer } from "effect"
import { feature } from "../http/Feature"
import { EmailConflicts } from "./EmailConflicts"
import { IdentityHttp } from "./Http"
import { Identity } from "./Identity"

export const identityFeature = feature(Layer.merge(Identity.Default, EmailConflicts.Default), IdentityHttp)
