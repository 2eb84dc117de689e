pragma solidity ^0.4.24;

contract Lending {
    struct Collateral {
        address token;
        uint256 amount;
    }

    struct Loan {
        address borrower;
        uint256 principal;
        Collateral collateral;
    }

    struct Plain {
        address owner;
        uint256 amount;
    }

    mapping(uint256 => Loan) public loans; // expect: public-mappings-nested
    mapping(address => mapping(uint256 => Loan)) public byBorrower; // expect: public-mappings-nested
    mapping(uint256 => Loan) internal hidden;
    mapping(uint256 => Plain) public plain;

    function open(uint256 id, address token, uint256 amount) public {
        loans[id].borrower = msg.sender;
        loans[id].collateral = Collateral(token, amount);
        byBorrower[msg.sender][id] = loans[id];
        hidden[id] = loans[id];
        plain[id] = Plain(msg.sender, amount);
    }
}
