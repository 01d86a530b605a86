package dev.puddle.core.access;

/** A privilege a catalog role holds on a securable. */
public record Grant(Privilege privilege, Securable securable) {}
