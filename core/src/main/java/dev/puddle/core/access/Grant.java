package dev.puddle.core.access;

import dev.puddle.core.api.Privilege;

/** A privilege a catalog role holds on a securable. */
public record Grant(Privilege privilege, Securable securable) {}
