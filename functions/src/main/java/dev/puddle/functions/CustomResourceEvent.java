package dev.puddle.functions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/** A CloudFormation custom resource request, as CloudFormation sends it to a Lambda function. */
@JsonIgnoreProperties(ignoreUnknown = true)
record CustomResourceEvent(
    @JsonProperty("RequestType") String requestType,
    @JsonProperty("ResponseURL") String responseUrl,
    @JsonProperty("StackId") String stackId,
    @JsonProperty("RequestId") String requestId,
    @JsonProperty("LogicalResourceId") String logicalResourceId,
    @JsonProperty("PhysicalResourceId") String physicalResourceId,
    @JsonProperty("ResourceType") String resourceType) {}
