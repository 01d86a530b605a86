package dev.puddle.core.aws;

import dev.puddle.core.events.CloudEvents;
import dev.puddle.core.events.EventPublisher;
import dev.puddle.core.metastore.StoredEvent;
import java.net.URI;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Publishes events to an EventBridge bus with {@code PutEvents}, one entry per event: {@code
 * Source} {@value #SOURCE}, {@code DetailType} the CloudEvents type, {@code Detail} the whole
 * CloudEvents envelope. A rule matches on those ({@code docs/events.md}).
 */
public final class EventBridgePublisher implements EventPublisher, AutoCloseable {
  public static final String SOURCE = "dev.puddle.catalog";

  private final EventBridgeClient events;
  private final String busName;

  public EventBridgePublisher(EventBridgeClient events, String busName) {
    this.events = events;
    this.busName = busName;
  }

  /** A client for EventBridge in a region, with the function's own credentials. */
  public static EventBridgeClient awsClient(String region) {
    return EventBridgeClient.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .region(Region.of(region))
        .build();
  }

  /** A client for an EventBridge-compatible endpoint with static keys, e.g. a test's. */
  public static EventBridgeClient client(
      String endpoint, String region, String accessKeyId, String secretAccessKey) {
    return EventBridgeClient.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(URI.create(endpoint))
        .region(Region.of(region))
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(accessKeyId, secretAccessKey)))
        .build();
  }

  @Override
  public int publish(List<StoredEvent> batch) {
    if (batch.isEmpty()) {
      return 0;
    }
    PutEventsResponse response =
        events.putEvents(
            b ->
                b.entries(
                    batch.stream()
                        .map(
                            event ->
                                PutEventsRequestEntry.builder()
                                    .eventBusName(busName)
                                    .source(SOURCE)
                                    .detailType(CloudEvents.type(event))
                                    .detail(CloudEvents.envelope(event))
                                    .build())
                        .toList()));
    List<PutEventsResultEntry> results = response.entries();
    int accepted = 0;
    while (accepted < batch.size()
        && accepted < results.size()
        && results.get(accepted).errorCode() == null) {
      accepted++;
    }
    return accepted;
  }

  @Override
  public void close() {
    events.close();
  }
}
