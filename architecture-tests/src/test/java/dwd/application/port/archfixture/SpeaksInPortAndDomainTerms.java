package dwd.application.port.archfixture;

import dwd.application.port.out.Clock;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.ResourceRef;
import java.util.Optional;

/** The allowed way: a port in the domain's terms and those of other ports. Analysed only in isolation. */
public interface SpeaksInPortAndDomainTerms {

    Optional<ScalableResource> read(String namespace, ResourceRef ref, Clock clock);
}
